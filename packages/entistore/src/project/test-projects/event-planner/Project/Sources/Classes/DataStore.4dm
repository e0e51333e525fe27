Class extends DataStoreImplementation

// A data generator as public apps have them: no key is given, the server makes each one.
exposed Function generate($count : Integer) : Integer
	var $room : cs.RoomEntity
	var $event : cs.EventEntity
	var $employee : cs.EmployeeEntity
	var $inscription : cs.InscriptionEntity
	var $i : Integer
	$room:=ds.Room.new()
	$room.label:="Main hall"
	$room.seats:=120
	$room.save()
	For ($i; 1; $count)
		$event:=ds.Event.new()
		$event.title:="Event "+String($i)
		$event.startDate:=Add to date(!2025-01-01!; 0; 0; $i)
		$event.save()
		$employee:=ds.Employee.new()
		$employee.name:="Guest "+String($i)
		$employee.save()
		$inscription:=ds.Inscription.new()
		$inscription.event:=$event
		$inscription.employee:=$employee
		$inscription.save()
	End for
	return ds.Event.all().length

// A login as Qodly pages have them: a wrong password tells the page, and answers false.
exposed Function authentify($login : Text; $password : Text) : Boolean
	If ($password#"secret")
		Web Form:C1735.setError("Wrong password for "+$login)
		return False
	End if
	Session.setPrivileges("planner")
	return True

// A page handler: a toast, a component hidden and styled, a state, and a write kept.
exposed Function publish($title : Text) : Object
	var $event : cs.EventEntity
	$event:=ds.Event.new()
	$event.title:=$title
	$event.save()
	Web Form.setMessage("Published")
	Web Form.publishButton.hide()
	Web Form["banner"].addCSSClass("highlight")
	Web Form.enableState("published")
	var $e : Object
	$e:=Web Event
	return {saved: ds.Event.query("title = :1"; $title).length; caller: $e.caller}

// A profile kept in the session's storage as a shared object, returned as it is.
exposed Function rememberRole($role : Text) : Object
	Use (Session.storage)
		Session.storage.profile:=New shared object("role"; $role; "rooms"; New shared collection("Main hall"))
	End use
	return Session.storage.profile

// A badge as real code makes one: a thumbnail of a picture of the project, sent as a JPEG.
exposed Function badge($side : Integer) : Object
	var $logo; $thumb : Picture
	var $jpeg : Blob
	var $width; $height : Integer
	READ PICTURE FILE("/RESOURCES/logo.png"; $logo)
	CREATE THUMBNAIL:C679($logo; $thumb; $side; $side; Scaled to fit prop centered:K6:6)
	PICTURE PROPERTIES($thumb; $width; $height)
	PICTURE TO BLOB($thumb; $jpeg; ".jpg")
	return {width: $width; height: $height; jpeg: BLOB size($jpeg)>0}

// A call to another service, as real code sends one: a JSON body, a header, the answer's headers.
exposed Function forward($url : Text; $payload : Object) : Object
	var $answer : Object
	ARRAY TEXT($names; 1)
	ARRAY TEXT($values; 1)
	$names{1}:="X-Planner"
	$values{1}:="yes"
	HTTP SET OPTION(HTTP timeout; 5)
	var $status : Integer
	$status:=HTTP Request(HTTP POST method; $url; $payload; $answer; $names; $values)
	return {status: $status; answer: $answer; type: $values{Find in array($names; "content-type")}}

// The same, where the call fails: the error Try sees.
exposed Function tryForward($url : Text) : Object
	var $text : Text
	var $status : Integer
	$status:=Try(HTTP Get($url; $text))
	return {status: $status; error: Last errors.length>0 ? Last errors[0].errCode : 0}

// Work handed to a worker, as real applications hand their mailing to one: the call answers
// before the worker runs.
exposed Function later($title : Text) : Integer
	CALL WORKER("planner"; "addEvent"; $title)
	return ds.Event.query("title = :1"; $title).length

// A worker that answers through a signal: the call waits for it, the jobs before it run first.
exposed Function counted($title : Text) : Object
	var $signal : 4D.Signal
	var $before : Integer
	CALL WORKER("planner"; "addEvent"; $title)
	$signal:=New signal("count")
	CALL WORKER("planner"; Formula(countInWorker($1)); $signal)
	$before:=ds.Event.all().length
	$signal.wait(100)
	return {before: $before; signaled: $signal.signaled; count: $signal.count; jobs: $signal.jobs}

// The same with 4D.HTTPRequest, its callback told of the answer.
exposed Function ask($url : Text) : Object
	var $request : 4D.HTTPRequest
	var $options : Object
	$options:={method: "POST"; headers: {"X-Planner": "yes"}; body: {room: "Annex"}}
	$options.onResponse:=Formula(This.seen:=$1.response.status)
	$request:=4D.HTTPRequest.new($url; $options).wait()
	If ($request.errors.length>0)
		return {error: $request.errors[0].errCode; terminated: $request.terminated}
	End if
	return {status: $request.response.status; got: $request.response.body.got; seen: $options.seen}

// A component of the project's Components folder, as 4D loads it: cs.Notify and its shared method.
exposed Function notice($title : Text) : Object
	sent:=100
	var $notice : Object
	$notice:=cs.Notify.Notice.new("planner").about($title)
	$notice.version:=Notify version
	$notice.hostSent:=sent
	return $notice

// What generic code asks of the server: its tables by number, its settings kept around a task,
// the web server's own figures, a file written with the line breaks asked for.
exposed Function environment() : Object
	var $tables : Collection:=[]
	var $t : Integer
	For ($t; 1; Get last table number)
		If (Is table number valid($t))
			$tables.push(Table name($t))
		End if
	End for
	var $saved : Integer:=Get database parameter(Debug log recording)
	SET DATABASE PARAMETER(Debug log recording; 1)
	var $during : Integer:=Get database parameter(Debug log recording)
	SET DATABASE PARAMETER(Debug log recording; $saved)
	var $info : Object:=WEB Get server info
	var $file : 4D.File:=File("/DATA/export.csv")
	$file.setText("a;b"+Char(Carriage return)+"1;2"; "UTF-8"; Document with CRLF)
	return {tables: $tables; during: $during; restored: Get database parameter(Debug log recording); \
		started: $info.started; port: $info.options.webPortID; requests: $info.httpRequestCount>0; \
		bytes: $file.size; chain: Get call chain}

// A notice mailed as real applications mail theirs: through the server a transporter names, the
// status 4D answers (a refused recipient too), and the error of a server the host does not allow.
exposed Function mailTo($address : Text; $port : Integer) : Object
	var $transporter : 4D.SMTPTransporter
	var $status : Object
	$transporter:=SMTP New transporter({host: "127.0.0.1"; port: $port; acceptUnsecureConnection: True})
	$status:=Try($transporter.send({from: "Planner <planner@example.com>"; to: $address; \
		subject: "Your inscription"; textBody: "See you on Monday."}))
	If ($status=Null)
		return {error: Last errors[0].errCode}
	End if
	return $status

// A program the server allows (serve --allow-exec tr), given a text on its standard input.
exposed Function shout($text : Text) : Object
	var $out; $err : Text
	var $pid : Integer
	LAUNCH EXTERNAL PROCESS("tr a-z A-Z"; $text; $out; $err; $pid)
	return {out: $out; ok: OK; started: $pid>0}
