// Declarations and every kind of variable and element.

var $text : Text
var $a, $b, $c : Integer
var $p; $q : Real
var $anything
var $mixed, myProcessVar : Date
var $file : 4D.File
var $employee : cs.Employee
var $componentClass : cs.myComponent.Tool
var $tokenized : 4D:C1709.OutgoingMessage
var $userClass : cs:C1710.CarEntity
var $initialized:=New object
var $typedInitialized : Collection:=[]
var $spacedInit : Integer := 5
var $0; $2 : Integer
var $lower : text
var $object : object
C_TEXT($1; $2)
C_LONGINT:C283($i; $n)
C_OBJECT($0)
C_LONGINT(${4})
ARRAY TEXT($names; 0)
ARRAY LONGINT:C221(aPositions; 10)
$local:=1
processVar:=2
<>interprocess:=3
$0:=$1+$2
${$i}:=0
$value:=${$i+1}
$names{1}:="Richard"
$matrix{2}{3}:=0
$element:=<>atSubjects{$vlElem}
$first:=$text[[1]]
$text[[1]]:=Uppercase($text[[1]])
$last:=vtText[[Length(vtText)]]
$o.name:="Smith"
$o["first name"]:="John"
$o.children[2].age:=7
$col[0]:=$col[Length($t)-1]
[Products]Size:=$MyNumber
[People]Last Name:="Doe"
[Employees:1]name:2:="Smith"
$ptr:=->[Employees]
$ptr->:="Goodbye"
$ptr->name:="via pointer"
$ptr->["other"]:=1
$arrayPtr->{2}:=5
$x:=vPtr->a
