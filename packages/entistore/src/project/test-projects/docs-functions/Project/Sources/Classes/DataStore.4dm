Class extends DataStoreImplementation

// ClassFunctions.md, "Using a datastore class function".
exposed Function getName() : Text
	return "US cities and zip codes manager"

// What each parameter arrives as: an untyped parameter keeps the JSON value's own type.
exposed Function kind($value) : Object
	return {type: Value type($value); value: $value}

exposed Function text($value : Text) : Text
	return "<"+$value+">"

exposed Function number($value : Real) : Real
	return $value*2

exposed Function integer($value : Integer) : Integer
	return $value+1

exposed Function flag($value : Boolean) : Boolean
	return Not($value)

exposed Function day($value : Date) : Object
	return {type: Value type($value); year: Year of($value); month: Month of($value); day: Day of($value)}

exposed Function nextDay($value : Date) : Date
	return $value+1

exposed Function object($value : Object) : Object
	$value.seen:=True
	return $value

exposed Function collection($value : Collection) : Collection
	return $value.reverse()

exposed Function entity($value : Object) : Object
	return {dataClass: $value.getDataClass().getInfo().name; key: $value.getKey(); \
		isNew: $value.isNew(); touched: $value.touchedAttributes(); name: $value.name}

exposed Function selection($value : Object) : Object
	return {length: $value.length; dataClass: $value.getDataClass().getInfo().name; \
		keys: $value.toCollection("ID").extract("ID")}

exposed Function many($text : Text; $number : Real; $flag : Boolean; $list : Collection) : Text
	return $text+" "+String($number)+" "+String($flag)+" "+String($list.length)

exposed Function isNull($value : Object) : Boolean
	return $value=Null

// Results of each kind.
exposed Function aDate() : Date
	return !2024-02-29!

exposed Function anObject() : Object
	return {name: "Aguada"; zip: 602; at: !2020-08-22!; tags: ["a"; "b"]; city: ds.City.get(1)}

exposed Function aCollection() : Collection
	return [1; 2.5; "three"; True; Null; {four: 4}]

exposed Function anEntity() : cs.CityEntity
	return ds.City.get(2)

exposed Function aSelection() : cs.CitySelection
	return ds.City.all().orderBy("name")

exposed Function aNull() : Object
	return Null

exposed Function anUndefined() : Variant
	var $o : Object:={}
	return $o.missing

exposed Function nothing()
	var $n : Integer:=1

// Errors.
exposed Function failing() : Text
	throw({errCode: 1234; message: "The city is unknown"})

exposed Function failingWith($code : Integer; $text : Text)
	throw($code; $text)

exposed Function divide($by : Integer) : Integer
	return ratio(10; $by)

// Runs from REST on the server, the keyword is for remote 4D clients.
exposed local Function localToo() : Text
	return "ran"

// Not exposed: for the application's own code.
Function secret() : Text
	return "hidden"

// The Session pages: authentify is an exposed datastore function.
exposed Function authentify($credentials : Object) : Text
	If ($credentials.password="secret")
		Session.setPrivileges({privileges: "manager"; userName: $credentials.name})
		return "Welcome "+$credentials.name
	End if
	return "Wrong password"

exposed Function whoAmI() : Object
	return {user: Session.userName; manager: Session.hasPrivilege("manager")}
