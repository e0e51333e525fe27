Class extends DataClass

// An agent sees every contact, a customer the contacts of its own company.
Function event restrict($event : Object) : cs.ContactSelection
	If (Session.hasPrivilege("agent"))
		return This.all()
	End if
	If (Session.storage.contact#Null)
		return This.query("companyID = :1"; Session.storage.contact.companyID)
	End if
	return This.newSelection()
