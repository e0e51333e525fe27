Class extends DataClass

// ClassFunctions.md, "Using an entity to be created on the server".
exposed Function pushData($entity : Object) : Object
	var $status : Object

	$status:=checkData($entity)  // $status is an object with a success boolean property

	If ($status.success)
		$status:=$entity.save()
		If ($status.success)
			return $entity
		End if
	End if

	return $status

// ClassFunctions.md, "Receiving an entity selection as parameter" (classic parameters).
exposed Function setFinalExam()

	var $1, $es, $student, $status : Object
	var $2, $examResult : Text

	var $keys, $0 : Collection

	//Entity selection
	$es:=$1

	$examResult:=$2

	$keys:=New collection()

	//Loop on the entity selection
	For each ($student; $es)
		$student.finalExam:=$examResult
		$status:=$student.save()
		If ($status.success)
			$keys.push($student.ID)
		End if
	End for each

	$0:=$keys
