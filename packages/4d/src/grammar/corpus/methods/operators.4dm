// 4D evaluates binary operators strictly left to right, all of one precedence.

$a:=3+4*5  // 35: (3+4)*5
$b:=3+(4*5)  // 23
$c:=10-2-3
$d:=2^3^2
$e:=$x>1+$i  // ($x>1)+$i
$f:=($x>1) & ($y<2)
$g:=($x>1) | ($y<2)
$h:=$x=1 & $y=2  // ((($x=1) & $y)=2)
$i:=$object.taxRate && ($object.price*$object.taxRate)
$j:=$emp.phone || "n/a"
$k:=$a || $b && $c  // ($a || $b) && $c
$l:=($person.firstname && $person.lastname) ? ($person.firstname+" "+$person.lastname) : ($person.lastname || $person.firstname) || ""
$m:=$age>=21 ? "Beer" : "Juice"
$n:=$x ? $y ? 1 : 2 : 3
$o:=$x ? 1 : $y ? 2 : 3
$p:=$count # 0
$q:=$text = "abc@"
$r:=$a <= $b
$s:=$a >= $b
$t:=$a < $b
$u:=$a > $b
$v:=10 % 3
$w:=7 \ 2
$x:="ab"*3
$y:="Alpha Bravo" % "Bravo"
$z:=0x0000FFFF & 0xFF00FF00
$bits:=0x0000FFFF ^| 0xFF00FF00
$shiftLeft:=0x0000FFFF << 8
$shiftRight:=0x0000FFFF >> 8
$bitSet:=0x00000000 ?+ 16
$bitClear:=0x00010000 ?- 16
$bitTest:=0x00010000 ?? 16
$minus:=-$value
$plus:=+$value
$minusThenAdd:=-$a+1
$subtractNegative:=5 - -2
$sign:=$n<0 ? -1 : 1
$date:=!2017-01-20!+9
$days:=!2017-01-20!-!2017-01-01!
$time:=?02:03:04?+?01:02:03?
$pointer:=->$myVar
$fieldPointer:=->[People]Name
$deref:=$pointer->
$sum:=$a+$b+$c+$d
$a+=1
$t+=" World"
$n-=2
$n*=5
$n/=2
$t*=2
This.count+=1
$col[0]+=10
