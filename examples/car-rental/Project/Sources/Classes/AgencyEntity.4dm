Class extends Entity

// "Lyon Part-Dieu, Lyon (since 2015)": the agency as the booking pages name it.
exposed Function get description($event : Object) : Text
	var $since : Text:=(This.opened=Null) ? "" : " (since "+String(Year of(This.opened))+")"
	return This.name+(((This.city=Null) | (This.city="")) ? "" : ", "+This.city)+$since

// Searching the description searches the name or the city.
exposed Function query description($event : Object) : Object
	return {query: "name "+$event.operator+" :1 or city "+$event.operator+" :1"; parameters: [$event.value]}

// A name or a city touched is kept without the spaces around it.
Function event saving($event : Object)
	var $touched : Collection:=This.touchedAttributes()
	If ($touched.indexOf("name")>=0)
		This.name:=Trim(This.name)
	End if
	If ($touched.indexOf("city")>=0) && (This.city#Null)
		This.city:=Trim(This.city)
	End if
