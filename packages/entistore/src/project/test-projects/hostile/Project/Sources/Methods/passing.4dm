// `$value`, after `$passes` passes of a loop: a formula that calls it runs long.
#DECLARE($value : Integer; $passes : Integer) : Integer
var $i; $n : Integer
For ($i; 1; $passes)
	$n:=$n+1
End for
return $value+$n-$passes
