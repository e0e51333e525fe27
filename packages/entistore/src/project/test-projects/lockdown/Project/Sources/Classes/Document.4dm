Class extends DataClass

// What a session sees rests on state outside the data, as in public applications: a lockdown
// (Storage.lockdown, or the Gate singleton closed) hides every document; otherwise the public ones
// are seen, and those of the role the session chose after login (Session.storage.role).
Function event restrict() -> $result : cs.DocumentSelection
	If (Bool(Storage.lockdown) | cs.Gate.me.closed)
		return This.newSelection()
	End if
	$result:=This.query("level = :1 | level = :2"; "public"; String(Session.storage.role))
