Class extends Entity

property draft : Boolean
property note; comment : Text
property rating : Integer := 3
property tags := []
property untyped

exposed Alias brand model.brand
Alias city address.city.name

exposed Function get fullName() -> $fullName : Text
	$fullName:=This.firstName+" "+This.lastName

Function set fullName($fullName : Text)
	var $p : Integer
	$p:=Position(" "; $fullName)
	This.firstName:=Substring($fullName; 1; $p-1)
	This.lastName:=Substring($fullName; $p+1)

Function get files : Collection
	return []

Function query fullName($event : Object) -> $result : Object
	$result:={query: "lastName = :1"; parameters: [$event.value]}

Function orderBy fullName($event : Object) -> $result : Text
	$result:="lastName "+$event.operator

Function event validateSave($event : Object) : Object
	If (This.mileage<0)
		return {errCode: 1; message: "negative mileage"}
	End if

Function event validateSave price($event : Object)
	return This.checkValue($event)

Function event touched lastName($event : Object)
	This.lastName:=Uppercase(This.lastName)

Function event restrict() : cs.EmployeeSelection
	return This.query("owner = :1"; Session.user.name)

Function get() : Text
	return "a function named get"
