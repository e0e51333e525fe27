//%attributes = {"executedOnServer":true,"preemptive":"capable"}
#DECLARE($type : Text; $count : Integer; $options : Object) -> $result : Collection

// A method with named parameters, then the classic forms.
If (Count parameters<2)
	$count:=1
End if
$result:=New collection
For ($i; 1; $count)
	$result.push($type+String($i))
End for
