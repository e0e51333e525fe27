//%attributes = {}
// Never ends: stopped at its budget (entistore-tests.json gives 300 ms).
var $n : Integer
While (True)
	$n:=$n+1
End while
