// The classic syntax: C_ declarations, $0 and $1…, ${n}, Count parameters (parameters.md).
$r:=[]
$r.push(concat("a"; "b"; "c"))
$r.push(typed(42))  // C_TEXT($1): a number gives "" without an error
$r.push(add_all(1; 2; 3; 4))
$r.push(named("x"; "y"; "z"))
return $r
// ---- method concat
C_TEXT($0; $1; $2)
$0:=$1+$2+String(Count parameters)
// ---- method typed
C_TEXT($1)
C_LONGINT($0)
$0:=Length($1)
// ---- method add_all
C_REAL(${1})
C_REAL($0)
For ($i; 1; Count parameters)
	$0:=$0+${$i}
End for
// ---- method named
#DECLARE($first : Text; $second : Text) : Text
return $first+$2+${2}+${3}
