Class extends DataClass

// Loops as many passes as Storage.restrictPasses says (without end for -1), then lets every item
// with a size be seen: any read of Item runs it, for each new value of Storage.
Function event restrict() -> $result : cs.ItemSelection
	var $i; $n : Integer
	$n:=Num(Storage.restrictPasses)
	While (($n<0) | ($i<$n))
		$i:=$i+1
	End while
	$result:=This.query("size >= :1"; 0)
