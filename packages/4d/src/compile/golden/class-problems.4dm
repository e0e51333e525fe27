// A class with lines that do not parse and a command that cannot run: reported when the class is
// compiled; its other functions run; the broken function raises its syntax error when called.
$w:=cs.Widget.new()
$r:=[$w.fine()]
$r.push(Try($w.broken()))
$r.push(Last errors[0].message)
$r.push(Try($w.alerting()))
$r.push(Last errors[0].errCode)
return $r
// ---- class Widget
property size : Integer := 3

Function fine() : Integer
	return This.size*2

Function broken(
	return 1

Function alerting()
	ALERT("hello")

Function fine() : Integer
	return 0
