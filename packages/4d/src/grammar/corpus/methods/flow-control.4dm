// Every block statement of 4D, nested.

If ($a=1)
	$b:=1
End if
If ($a=1)
	$b:=1
Else
	$b:=2
End if
If (($a=1) & ($c=2)) && ($d#Null)
	If ($e)
		$f:=1
	Else
		If ($g)
			$h:=2
		End if
	End if
End if
Case of
	// a comment before the first case
	: ($vt=Is text:K8:3) && ($paths#"")
		$kind:="text"
	: ($vt=Is collection:K8:32)
		$kind:="collection"
		
	: ($vt=Is object:K8:27)
	Else
		$kind:="other"
End case
Case of
	: ($a=1)
		$b:=1
End case
Case of
End case
For ($i; 1; 10)
	$sum+=$i
End for
For ($i; 10; 1; -1)
	If ($i=5)
		break
	End if
	If ($i%2=0)
		continue
	End if
End for
For each ($item; $collection)
	$total+=$item.price
End for each
For each ($key; $object)
	$keys.push($key)
End for each
For each ($entity; ds.Employee.all(); 0; 10)
	$names.push($entity.name)
End for each
For each ($x; $col; 2) Until ($x>5)
End for each
For each ($x; $col) While ($x<5)
	$n+=1
End for each
While ($i<10)
	$i+=1
End while
Repeat
	$i-=1
Until ($i=0)
Try
	$result:=$risky.run()
Catch
	$errors:=Last errors
	throw
End try
Try
	$x:=1
End try
throw(50042; "This is a custom error")
throw({errCode: 1; message: "Error {name}"; name: "x"; deferred: True})
throw:C1805(500; "Unable to send email")
throw "a message without parentheses"
Use (Storage)
	Storage.counter:=New shared object("value"; 0)
End use
Use ($shared.list)
	$shared.list.push(1)
End use
return
return $value
return ($a+$b)*2
