Class extends DataStoreImplementation

// POST /rest/$catalog/authentify {"login": "ada"; "password": "ada-pass"} for an agent, or
// {"email": "ana@acme.example"; "password": "ana-pass"} for a customer's contact. roles.json
// promotes this function to accountReader, the one privilege that reads the password hashes.
exposed Function authentify($credentials : Object) : Text
	var $agent : cs.AgentEntity
	var $contact : cs.ContactEntity
	If ($credentials=Null)
		throw(401; "Give a login or an email, and a password")
	End if
	If ($credentials.login#Null)
		$agent:=ds.Agent.query("login = :1 and active = true"; $credentials.login).first()
		If ($agent#Null) && (Verify password hash(String($credentials.password); $agent.passwordHash))
			Session.setPrivileges({roles: ($agent.role="lead") ? "Lead" : "Support"; userName: $agent.name})
			Use (Session.storage)
				Session.storage.agent:=New shared object("ID"; $agent.ID; "team"; $agent.team.name)
			End use
			return "Welcome "+$agent.name
		End if
	Else
		$contact:=ds.Contact.query("email = :1 and active = true"; $credentials.email).first()
		If ($contact#Null) && (Verify password hash(String($credentials.password); $contact.passwordHash))
			Session.setPrivileges({privileges: "customer"; userName: $contact.fullName})
			Use (Session.storage)
				Session.storage.contact:=New shared object("ID"; $contact.ID; "companyID"; $contact.company.ID)
			End use
			return "Welcome "+$contact.firstName
		End if
	End if
	throw(401; "Wrong login or password")

// Who the session is, as the application sees it.
exposed onHTTPGet Function whoAmI() : Object
	return {userName: Session.userName; agent: Session.hasPrivilege("agent"); admin: Session.hasPrivilege("admin"); customer: Session.hasPrivilege("customer")}

// The tickets by status, of what the session may see (Ticket's restrict decides).
exposed onHTTPGet Function stats() : Object
	var $result : Object:={}
	var $status : Text
	For each ($status; ds.Ticket.all().distinct("status"))
		$result[$status]:=ds.Ticket.query("status = :1"; $status).length
	End for each
	$result.total:=ds.Ticket.all().length
	return $result

// A contact opens a ticket with its first message: both are saved, or neither.
exposed Function openTicket($subject : Text; $body : Text) : cs.TicketEntity
	var $ticket : cs.TicketEntity
	var $message : cs.MessageEntity
	var $status : Object
	If (Session.storage.contact=Null)
		throw(403; "Only a customer's contact opens a ticket")
	End if
	ds.startTransaction()
	$ticket:=ds.Ticket.new()
	$ticket.subject:=$subject
	$ticket.contact:=ds.Contact.get(Session.storage.contact.ID)
	$ticket.company:=$ticket.contact.company
	$status:=$ticket.save()
	If ($status.success)
		$message:=$ticket.addMessage($body)
		If ($message=Null)
			ds.cancelTransaction()
			throw(422; "The message is empty")
		End if
	Else
		ds.cancelTransaction()
		throw(422; $status.statusText)
	End if
	ds.validateTransaction()
	return $ticket

// Gives every open ticket of $from to $to; answers how many moved.
exposed Function reassign($from : cs.AgentEntity; $to : cs.AgentEntity) : Integer
	var $moved : Integer:=0
	var $ticket : cs.TicketEntity
	For each ($ticket; $from.tickets.query("status # :1"; "closed"))
		$ticket.agent:=$to
		If ($ticket.save().success)
			$moved+=1
		End if
	End for each
	return $moved

exposed Function purgeAudit() : Integer
	var $all : cs.AuditEntrySelection:=ds.AuditEntry.all()
	var $count : Integer:=$all.length
	$all.drop()
	return $count
