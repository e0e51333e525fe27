// Try…Catch (error-handling.md): an error stops the block and runs Catch, with Last errors;
// Try(expression) gives Undefined on an error; throw (throw.md) with a code, an object, deferred.
var $r : Collection
var $o : Object
$r:=[]
Try
	$r.push("before")
	$o.missing:=1  // a property of Null assigned: an error
	$r.push("never")
Catch
	$r.push("caught "+String(Last errors[0].errCode))
End try
$r.push(Last errors.length)
Try
	throw(50042; "This is a custom error")
Catch
	$r.push(Last errors[0])
End try
Try
	throw({errCode: 1; message: "File {name} not found"; name: "a.txt"})
Catch
	$r.push(Last errors[0].message)
End try
Try
	throw({errCode: 1})
Catch
	$r.push(Last errors[0].message)  // "Error code: 1 (host)"
End try
Try
	throw "a text alone"
Catch
	$r.push([Last errors[0].errCode; Last errors[0].message])
End try
// Without Catch, the error is dropped.
Try
	$x:=1\0
End try
$r.push(Last errors[0].errCode)
// A deferred error thrown in the Try block itself: the block goes on, Catch does not run.
Try
	throw({message: "later"; deferred: True})
	$r.push("after a deferred throw")
Catch
	$r.push("never")
End try
// A method that throws a deferred error: it goes on to its end, then its caller's Catch runs.
Try
	$r.push(deferring)
Catch
	$r.push("caught deferred: "+Last errors[0].message)
End try
// Try(expression).
$r.push(Try(2*3))
$r.push(Try(1\0))
$r.push(Last errors[0].errCode)
$r.push(Try($o.a) || "default")
// Nested: the inner Catch handles, the outer goes on.
Try
	Try
		$x:=1+"a"
	Catch
		$r.push("inner "+String(Last errors[0].errCode))
	End try
	$r.push("outer goes on")
Catch
	$r.push("never")
End try
return $r
// ---- method deferring
throw({message: "deferred error"; deferred: True})
$r:="the method ran to its end"
return $r
