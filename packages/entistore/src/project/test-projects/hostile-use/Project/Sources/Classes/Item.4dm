Class extends DataClass

// Nothing of Item is seen while Storage.lockdown is set: a read reads Storage as it is then.
Function event restrict() -> $result : cs.ItemSelection
	If (Bool(Storage.lockdown))
		$result:=This.newSelection()
	Else
		$result:=This.all()
	End if
