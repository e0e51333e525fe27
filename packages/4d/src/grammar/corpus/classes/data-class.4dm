Class extends DataClass

// Exposed: callable over REST as /rest/Car/available.
exposed Function available($from : Date; $to : Date) : cs.CarSelection
	var $busy : cs.CarSelection
	$busy:=ds.Rental.query("startDate <= :1 and endDate >= :2"; $to; $from).car
	return This.query("active = true").minus($busy)

exposed onHTTPGet Function picture($name : Text; $width : Integer) : 4D.OutgoingMessage
	var $response : 4D:C1709.OutgoingMessage:=4D:C1709.OutgoingMessage.new()
	$response.setBody(File("/RESOURCES/"+$name).getContent())
	return $response

local Function cached()->$result : Collection
	$result:=This.all().toCollection("name")

Function purge()
	This.query("archived = true").drop()

Function withoutResult($x : Integer)
	This.touch($x)
