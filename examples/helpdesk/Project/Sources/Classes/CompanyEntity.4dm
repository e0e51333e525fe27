Class extends Entity

// The company's tickets not closed.
exposed Function get openTickets($event : Object) : Integer
	return This.tickets.query("status # :1"; "closed").length
