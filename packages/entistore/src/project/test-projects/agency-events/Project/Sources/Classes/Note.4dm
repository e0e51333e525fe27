Class extends DataClass

// Each user sees their own notes, an admin or an auditor all of them, a muted session none;
// code run outside a request (no Session) sees none.
Function event restrict() -> $result : cs.NoteSelection
	Case of
		: (Session=Null)
			$result:=This.newSelection()
		: (Session.hasPrivilege("admin") | Session.hasPrivilege("auditor"))
			$result:=Null
		: (Bool(Session.storage.muted))
			$result:=This.newSelection()
		Else
			$result:=This.query("owner = :1"; Session.userName)
	End case
