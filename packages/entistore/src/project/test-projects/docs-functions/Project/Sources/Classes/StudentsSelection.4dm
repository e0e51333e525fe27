Class extends EntitySelection

// ClassFunctions.md, "Using an entitySelection class function and an entitySet".
exposed Function getAgeAverage : Integer
	var $sum : Integer
	var $s : Object

	$sum:=0
	For each ($s; This)
		$sum:=$sum+$s.age()
	End for each
	return $sum/This.length

// ClassFunctions.md, "Using an entitySelection class function and an orderBy".
exposed Function getLastSummary : Text
	var $last : Object

	$last:=This.last()
	return $last.firstname+" - "+$last.lastname+" is ... "+String($last.age())
