Class extends Entity

// An alias through the to-many relation inscriptions: the employees who signed up.
exposed Alias attendees inscriptions.employee

// A computed attribute declared with its result and no parentheses, the arrow against the name.
exposed Function get info->$info : Object
	$info:={title: This.title; attendees: This.inscriptions.length}

// No parentheses, a type and return.
exposed Function get headline : Text
	return Uppercase(This.title)

// A getter of an entity selection, and one of an entity.
exposed Function get people() : cs.EmployeeSelection
	return This.inscriptions.employee

exposed Function get firstAttendee() : cs.EmployeeEntity
	If (This.inscriptions.length>0)
		return This.inscriptions.first().employee
	End if
	return Null

// A function named like a relation of the dataclass.
exposed Function inscriptions() : Integer
	return This.inscriptions.length
