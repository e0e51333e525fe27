Class extends DataClass

// What a session may see of the tickets: an agent all of them, a contact its company's, anyone
// else none. 4D calls it for every read of Ticket, over REST and from code.
Function event restrict($event : Object) : cs.TicketSelection
	If (Session=Null)  // the application's own code, outside any request: no restriction
		return Null
	End if
	If (Session.hasPrivilege("agent"))
		return This.all()
	End if
	If (Session.storage.contact#Null)
		return This.query("company.ID = :1"; Session.storage.contact.companyID)
	End if
	return This.newSelection()

// The tickets not closed, most urgent first.
exposed onHTTPGet Function backlog() : cs.TicketSelection
	return This.query("status # :1"; "closed").orderBy("priority desc, openedOn asc")

// The ticket of a subject, for a contact searching its own.
exposed Function search($words : Text) : cs.TicketSelection
	return This.query("subject = :1"; "@"+$words+"@")
