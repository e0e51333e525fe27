// Commands by name (with spaces, any case) and by token; constants; system variables; the
// commands that are nodes of their own; symbols as arguments; calls of methods and formulas.

$len:=Length("abc")
$len2:=Length:C16("abc")
$lower:=length("ABC")
$today:=Current date
$today2:=Current date:C33
$tomorrow:=Current date+1
$now:=Current time:C178()
$keys:=OB Keys($object)
$keys2:=OB Keys:C1719($object)
$o:=New object("name"; "Smith"; "age"; 42)
$c:=New collection:C1472(1; 2; 3)
$shared:=New shared object()
$type:=Value type($x)=Is text
$type2:=Value type:C1509($x)=Is collection:K8:32
$folder:=Folder(fk resources folder).file("a.json")
$folder2:=Folder:C1567(fk resources folder:K87:11).file("a.json")
$server:=Application type:C494#4D Server:K5:6
$msg:="Error in "+Error method+" at line "+String(Error line)
$ok:=(OK=1)
$this:=This
$this2:=This:C1470.name
$super:=Super.describe()
Super($1; $2)
Super:C1706("x")
Super:C1705($1)
$parent:=Super:C1706.describe()
$store:=cs.Car.new()
$store2:=cs:C1710.Car.new()
$builtin:=4D.File.new("/RESOURCES/a.txt")
$builtin2:=4D:C1709.OutgoingMessage.new()
$ds:=ds.Employee.query("name = :1"; "Smith")
$ds2:=ds:C1482.Employee.all()
$remote:=ds("remoteStore").Employee
$f:=Formula($1+$2)
$g:=Formula:C1597(This.total*2)
$h:=New formula(ALERT("Hello"))
$i:=Formula from string("$1*2")
$j:=Try(JSON Parse($text))
$k:=$f.call(Null; 1; 2)
$l:=$o.fn(1)
$m:=$o["fn"](2)
$n:=myMethod(1; "two")
myMethod
DO_SOMETHING ($a; $b)
$result:=MyMethod1.a
$error:=err .hide()
$o2:=path ["templates"]()
ALERT("Hello, World!")
ALERT:C41($message)
OBJECT SET FONT(*; "Binfo"; "Times")
SORT ARRAY($names; >)
SORT ARRAY:C229($names; <)
QUERY([People]; [People]Name="Smith"; *)
QUERY([People];  & ; [People]Age>18)
QUERY([People]; | [People]City="Paris")
ALL RECORDS([People])
$count:=Records in table([People])
$param:=Count parameters
$storage:=Storage.settings
$session:=Session:C1714.storage.userInfo
$web:=Web Form:C1735.setMessage("ok")
$v:=Not(False)
$setter:=Formula(Form.total:=$1)
$adder:=Formula:C1597($o["total"]+=$1)
