// What a session keeps at hand: the tickets it looked at last (a session singleton).
session singleton Class constructor()
	This.recent:=New shared collection()

exposed shared Function remember($ticket : cs.TicketEntity) : Collection
	If (This.recent.indexOf($ticket.ID)<0)
		This.recent.unshift($ticket.ID)
	End if
	If (This.recent.length>5)
		This.recent.resize(5)
	End if
	return This.recent.copy()

exposed Function recentTickets() : cs.TicketSelection
	return ds.Ticket.query("ID in :1"; This.recent)
