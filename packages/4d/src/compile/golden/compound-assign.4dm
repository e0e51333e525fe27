// Compound assignment (operators.md): $x op= y is $x := $x op y, on variables and properties.
$r:=[]
$a:=10
$a+=5
$a-=3
$a*=2
$a/=4
$r.push($a)  // 6
$t:="ab"
$t+="cd"
$t*=2
$r.push($t)  // abcdabcd
$o:={n: 1; list: [1; 2]}
$o.n+=41
$o.list[1]*=10
$r.push($o)
$d:=!2024-01-01!
$d+=31
$r.push(String($d))
return $r
