Class extends EntitySelection

// The tickets of this selection open for longer than the service level allows.
exposed Function late() : cs.TicketSelection
	return This.query("overdue = true")

// The minutes spent on this selection.
exposed Function effort() : Integer
	return This.sum("effortMinutes")

// How many tickets each agent has, busiest first: [{agent; tickets}].
exposed Function byAgent() : Collection
	var $result : Collection:=[]
	var $agent : Text
	For each ($agent; This.query("agent # null").extract("agent.name").distinct())
		$result.push({agent: $agent; tickets: This.query("agent.name = :1"; $agent).length})
	End for each
	return $result.orderBy("tickets desc, agent asc")
