Class extends DataClass

// An agent sees every contact, a customer the contacts of its own company; authentify, promoted
// to accountReader, finds the one logging in (Null: no restriction).
Function event restrict($event : Object) : cs.ContactSelection
	If (Session=Null)  // the application's own code, outside any request: no restriction
		return Null
	End if
	If (Session.hasPrivilege("agent") | Session.hasPrivilege("accountReader"))
		return Null
	End if
	If (Session.storage.contact#Null)
		return This.query("companyID = :1"; Session.storage.contact.companyID)
	End if
	return This.newSelection()
