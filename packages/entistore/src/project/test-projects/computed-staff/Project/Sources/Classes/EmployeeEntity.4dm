Class extends Entity

exposed Alias employerName employer.name

// `Ada Lovelace`: its $event as 4D gives it, Null through $event.result for a nameless one.
exposed Function get fullName($event : Object) -> $result : Text
	If ((This.firstname="") & (This.lastname=""))
		$event.result:=Null
	Else
		$result:=This.firstname+" "+This.lastname
	End if

// Writes the two names, as 4D's documented setter does.
Function set fullName($value : Text; $event : Object)
	var $p : Integer
	$p:=Position(" "; $value)
	This.firstname:=Substring($value; 1; $p-1)
	This.lastname:=Substring($value; $p+1)

// An equality answered on the indexed names; any other operator left to the getter (Null).
Function query fullName($event : Object) -> $result : Object
	var $parts : Collection
	$parts:=Split string($event.value; " ")
	If ($event.operator="==")
		If ($parts.length=2)
			$result:={query: "firstname = :1 and lastname = :2"; parameters: $parts}
		Else
			$result:={query: "firstname = :1 or lastname = :1"; parameters: $parts}
		End if
	Else
		$event.result:=Null
	End if

Function orderBy fullName($event : Object) -> $result : Text
	$result:="lastname "+$event.operator+", firstname "+$event.operator

// No query nor orderBy: a filter or a sort calls the getter on every entity.
exposed Function get initials() : Text
	return Substring(This.firstname; 1; 1)+Substring(This.lastname; 1; 1)

// Reads what only finance may read.
exposed Function get employerRevenues() : Real
	return This.employer.revenues
