// = Null and # Null (either side) answer for any operand, never an error: Null equals Null and
// Undefined, and nothing else (dt_null_undefined.md); the operand is evaluated once.
var $o : Object
var $c : Collection
var $n : Integer
$r:=[]
$r.push($o=Null)
$r.push(Null#$o)
$r.push($undefined=Null)
$r.push($undefined#Null)
$r.push(Null=Null)
$r.push(Null#Null)
$r.push($c=Null)
$r.push(0=Null)
$r.push(""#Null)
$r.push(False=Null)
$r.push({}=Null)
$r.push(Null=[])
$r.push(!00-00-00!=Null)
$o:={a: Null}
$r.push($o.a=Null)
$r.push($o.missing=Null)
$r.push($o#Null)
$r.push($r.push(1).length#Null)
return $r
