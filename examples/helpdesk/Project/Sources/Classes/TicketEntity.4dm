Class extends Entity

exposed Alias companyName company.name
exposed Alias agentName agent.name

// Days from opening to closing, or to today for a ticket still open.
exposed Function get ageDays($event : Object) : Integer
	If (This.openedOn=Null)
		return 0
	End if
	return ((This.closedOn=Null) ? Current date : This.closedOn)-This.openedOn

// Open for longer than the service level allows.
exposed Function get overdue($event : Object) : Boolean
	return (This.status#"closed") && (This.openedOn#Null) && ((Current date-This.openedOn)>cs.Sla.me.days())

// overdue = true is the tickets not closed opened before the service level's first day.
exposed Function query overdue($event : Object) : Object
	var $limit : Date:=Current date-cs.Sla.me.days()
	If (($event.operator="==") | ($event.operator="===")) && ($event.value=True)
		return {query: "status # :1 and openedOn < :2"; parameters: ["closed"; $limit]}
	End if
	return {query: "status = :1 or openedOn >= :2"; parameters: ["closed"; $limit]}

// "#12 Cannot log in": the ticket as people name it; written, it changes the subject only.
exposed Function get label($event : Object) : Text
	return "#"+String(This.ID)+" "+This.subject

Function set label($value : Text; $event : Object)
	var $at : Integer:=Position(" "; $value)
	This.subject:=(($value="#@") && ($at>0)) ? Substring($value; $at+1) : $value

exposed Function orderBy label($event : Object) : Text
	return "ID "+$event.operator

// A ticket needs a subject.
Function event validateSave subject($event : Object) : Object
	If (Length(Trim(This.subject))=0)
		return {errCode: 1001; message: "A ticket needs a subject"; extraDescription: {attribute: "subject"}; seriousError: False}
	End if

// A new ticket is new and opened today; every save says when.
Function event saving($event : Object)
	If (This.status=Null) | (This.status="")
		This.status:="new"
	End if
	If (This.priority=Null)
		This.priority:=2
	End if
	If (This.openedOn=Null)
		This.openedOn:=Current date
	End if
	This.updatedOn:=Current date

// Closing a ticket dates it.
Function event touched status($event : Object)
	If (This.status="closed")
		This.closedOn:=Current date
	Else
		This.closedOn:=Null
	End if

Function event afterSave($event : Object)
	var $entry : cs.AuditEntryEntity:=ds.AuditEntry.new()
	$entry.dataClass:=$event.dataClassName
	$entry.entityKey:=String(This.ID)
	$entry.action:="save"
	$entry.on:=Current date
	$entry.by:=Session.userName
	$entry.save()

// A ticket that has messages is kept.
Function event validateDrop($event : Object) : Object
	If (This.messages.length>0)
		return {errCode: 1002; message: "A ticket with messages cannot be dropped"; seriousError: True}
	End if

// Closes the ticket with a resolution (agents only: roles.json).
exposed Function close($resolution : Text) : Object
	This.status:="closed"
	This.resolution:=$resolution
	return This.save()

// Adds a message from the session's user; Null for an empty one.
exposed Function addMessage($body : Text) : cs.MessageEntity
	var $message : cs.MessageEntity
	If (Length(Trim($body))=0)
		return Null
	End if
	$message:=ds.Message.new()
	$message.ticket:=This
	$message.body:=$body
	$message.fromAgent:=Session.hasPrivilege("agent")
	$message.authorName:=Session.userName
	$message.save()
	return $message
