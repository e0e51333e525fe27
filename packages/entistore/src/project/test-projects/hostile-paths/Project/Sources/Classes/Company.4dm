Class extends DataClass

// Loops as many passes as Storage.restrictPasses says (without end for -1), then lets the open
// companies be seen: any read through a relation to Company runs it, for each new value of Storage.
Function event restrict() -> $result : cs.CompanySelection
	var $i; $n : Integer
	$n:=Num(Storage.restrictPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	$result:=This.query("open = :1"; True)
