Class extends Entity

Function age() : Integer
	return 2024-Year of(This.born)

// ClassFunctions.md, "Updating an entity with a related entity".
exposed Function putToSchool()
	var $1, $school, $0, $status : Object

	//$1 is a Schools entity
	$school:=$1
	//Associate the related entity school to the current Students entity
	This.school:=$school

	$status:=This.save()

	$0:=$status
