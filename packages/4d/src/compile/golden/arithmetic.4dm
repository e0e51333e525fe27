// Arithmetic, strictly left to right (dt_number.md: 3+4*5 is 35), and by type (operators.md).
var $r : Collection
$r:=[]
$r.push(3+4*5)  // 35
$r.push(3+(4*5))  // 23
$r.push(10-2-3)  // 5
$r.push(2^3^2)  // (2^3)^2 = 64
$r.push(7\2)  // 3
$r.push(-7\2)  // Int(-3.5) = -4
$r.push(-7%3)  // -1, the dividend's sign
$r.push(7.5%2)  // 7.5 is 8 as a long: 0
$r.push(10.5%2)  // 10.5 is 10 as a long (halves to even): 0
$r.push(String(1/0))  // INF
$r.push(1/4)
$r.push("ab"+"cd")
$r.push("ab"*3)
$r.push(-(2+3))
$r.push(+5)
$r.push(12 & 10)  // bitwise on longs: 8
$r.push(12 | 10)  // 14
$r.push(1 << 4)
$r.push(5 ?? 0)  // bit 0 of 5 is set
var $d : Date
$d:=!2020-01-31!+1
$r.push(String($d))  // 02/01/2020
$r.push(!2020-03-01!-!2020-02-01!)  // 29 days
$r.push(String(?01:00:00?+?00:30:00?))  // a Time: 01:30:00
$r.push(?01:00:00?+60)  // a Number: 3660
return $r
