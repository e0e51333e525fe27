Class extends Entity

// A message is dated when it is saved first.
Function event saving($event : Object)
	If (This.sentOn=Null)
		This.sentOn:=Current date
		This.sentAt:=Current time
	End if

Function event validateDrop($event : Object) : Object
	return {errCode: 1004; message: "Messages are kept"; seriousError: True}
