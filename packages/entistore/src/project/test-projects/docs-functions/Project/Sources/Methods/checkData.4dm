#DECLARE($entity : Object) -> $status : Object
// The page's controls: a student has a last name, kept in capitals.
If ($entity.lastname=Null) || ($entity.lastname="")
	return {success: False; statusText: "A student has a last name"}
End if
$entity.lastname:=Uppercase($entity.lastname)
return {success: True}
