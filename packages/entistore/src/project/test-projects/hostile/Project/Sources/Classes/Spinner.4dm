shared singleton Class constructor()

// An HTTP handler with a loop that never ends.
Function spin($request : 4D.IncomingMessage) : 4D.OutgoingMessage
	var $n : Integer
	While (True)
		$n:=$n+1
	End while
	var $response : 4D.OutgoingMessage
	$response:=4D.OutgoingMessage.new()
	$response.setBody(String($n))
	return $response

// An HTTP handler that answers at once.
Function hello($request : 4D.IncomingMessage) : Text
	return "hello"
