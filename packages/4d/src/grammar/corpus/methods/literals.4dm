//%attributes = {"invisible":true}
// Every literal 4D writes: texts with their escapes, numbers, dates, times, booleans, null,
// objects and collections (nested, empty, quoted keys).

$text:="plain"
$escaped:="tab\there, quote \"q\", backslash \\ and\na new line\r"
$unknownEscape:="C:\Temp is kept as written"
$empty:=""
$integer:=42
$real:=123.76
$small:=0.0076
$exponent:=1.5e3
$negativeExponent:=2E-4
$hex:=0x00FF
$negative:=-27
$iso:=!2020-01-15!
$isoSlashes:=!2018/01/21!
$nullDate:=!00-00-00!
$usDate:=!12/04/98!
$usDate2000:=!01/15/24!
$time:=?10:20:30?
$shortTime:=?8:05?
$longTime:=?48:00:00?
$negativeTime:=?-01:30:00?
$true:=True
$false:=False
$lowerTrue:=true
$null:=Null
$tokenTrue:=True:C214
$tokenNull:=Null:C1517
$emptyObject:={}
$emptyCollection:=[]
$object:={name: "Smith"; age: 42; "first name": "John"; nested: {deep: [1; 2; {x: 3}]}}
$collection:=[1; "two"; !2021-03-04!; ?01:02:03?; {a: 1}; [3; 4]; Null]
$commas:=[1, 2, 3]
$commaObject:={a: 1, b: 2}
$computed:={total: $a+$b; label: "n="+String($n); flag: ($n>0) ? True : False}
$spaced:={ a : 1 ; b : [ 1 ; 2 ] }
