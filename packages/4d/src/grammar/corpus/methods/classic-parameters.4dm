  // Capitalize ( Text ) -> Text
  // The classic syntax: numbered parameters, C_ declarations, ${n}.
C_TEXT($0; $1)
C_LONGINT($i)
C_REAL(${2})

$0:=Uppercase(Substring($1; 1; 1))+Lowercase(Substring($1; 2))
For ($i; 2; Count parameters)
	$sum:=$sum+${$i}
End for
$0:=$0+String($sum; "##0.00")
