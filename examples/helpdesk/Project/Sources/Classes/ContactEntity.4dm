Class extends Entity

exposed Alias companyName company.name

// "Ana Silva", written back to its two parts, searched and sorted by them.
exposed Function get fullName($event : Object) : Text
	return This.firstName+" "+This.lastName

Function set fullName($value : Text; $event : Object)
	var $parts : Collection:=Split string($value; " "; sk ignore empty strings+sk trim spaces)
	This.firstName:=$parts.length>0 ? $parts[0] : ""
	This.lastName:=$parts.length>1 ? $parts.slice(1).join(" ") : ""

// fullName = "Ana Silva" is firstName = "Ana" and lastName = "Silva"; one word is either.
exposed Function query fullName($event : Object) : Object
	var $parts : Collection:=Split string($event.value; " "; sk ignore empty strings+sk trim spaces)
	If ($parts.length<2)
		return {query: "firstName "+$event.operator+" :1 or lastName "+$event.operator+" :1"; parameters: [$event.value]}
	End if
	return {query: "firstName "+$event.operator+" :1 and lastName "+$event.operator+" :2"; parameters: [$parts[0]; $parts.slice(1).join(" ")]}

exposed Function orderBy fullName($event : Object) : Text
	return "firstName "+$event.operator+", lastName "+$event.operator

// An email has an at sign and a dot after it.
Function event validateSave email($event : Object) : Object
	var $at : Integer:=Position("@"; This.email; *)
	If ($at=0) || (Position("."; Substring(This.email; $at+1))=0)
		return {errCode: 1003; message: "The email "+This.email+" is not valid"; seriousError: False}
	End if
