// A collection function's $1: a formula that only reads $1.value (and $1.value2) is given one $1
// for all elements; one that keeps $1 (returns it, passes it, puts it in a literal) gets a new one
// for each element, as 4D gives (CollectionClass.md).
var $c; $kept; $r : Collection
$c:=[3; 1; 2]
$r:=[]
$r.push($c.map(Formula($1.value*2)))
$r.push($c.filter(Formula($1.value>=2)))
$r.push($c.find(Formula($1.value<3)))
$r.push($c.sort(Formula($1.value>$1.value2)))
$kept:=$c.map(Formula($1))
$r.push($kept)
$r.push($kept[0]=$kept[1])
$r.push($c.map(Formula(New object("param"; $1; "v"; $1.value))))
$r.push($c.map(Formula([$1.value; $1][1].value)))
$r.push($c.map(Formula($1.value+Num($1.value=3))))
return $r
