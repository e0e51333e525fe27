// Lines that do not parse are kept, each failing alone; the rest of the file parses.
$ok1:=1
$bad:=(1+2
$ok2:=2
$a+1:=3
$unterminated:="abc
If ($x=1
	$inside:=1
End if
If ($y=1)
	$z:=(
End if
End for
Else
Until ($x)
Catch
: ($a=1)
$ok3:=3
For each ($x; $col)
	$n+=1
Begin SQL
	SELECT name FROM people INTO :$names
End SQL
Begin SQL
	SELECT 1
Function notHere()
$last:="still parsed"
If ($open)
	$never:=1
$len:=Length($t:="only a formula takes an assignment")
