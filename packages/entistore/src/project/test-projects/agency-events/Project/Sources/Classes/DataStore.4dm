Class extends DataStoreImplementation

// POST /rest/$catalog/authentify [{"name": "ada"; "password": "ada-secret"}]: the users of the
// application and what each may do; a wrong password logs nobody in.
exposed Function authentify($credentials : Object) : Text
	var $users : Object:={ada: {password: "ada-secret"; privileges: ["reader"]}; \
		bob: {password: "bob-secret"; privileges: []}; \
		root: {password: "root-secret"; privileges: []; roles: ["Manager"]}}
	var $user : Object:=$users[String($credentials.name)]
	If ($user=Null) || ($user.password#$credentials.password)
		return "Wrong name or password"
	End if
	Session.setPrivileges({privileges: $user.privileges; roles: $user.roles; userName: $credentials.name})
	Use (Session.storage)
		Session.storage.loginCount:=Num(Session.storage.loginCount)+1
	End use
	return "Authentication successful"

exposed Function who() : Object
	return {user: Session.userName; reader: Session.hasPrivilege("reader"); \
		admin: Session.hasPrivilege("admin"); auditor: Session.hasPrivilege("auditor"); \
		logins: Session.storage.loginCount; type: Session.info.type}

// roles.json promotes "auditor" for this call: the restrict of Note lets an auditor see all.
exposed Function auditCount() : Object
	return {notes: ds.Note.all().length; auditor: Session.hasPrivilege("auditor")}

// Session.promote for a part of the call only.
exposed Function promotedCount() : Object
	var $id : Integer:=Session.promote("admin")
	var $during : Integer:=ds.Note.all().length
	Session.demote($id)
	return {during: $during; after: ds.Note.all().length; promoted: $id>0}

// What the agencies' saving event kept in Storage, and the last agency dropped.
exposed Function log() : Object
	return {saved: Storage.saved; dropped: Storage.dropped}

// A component and commands that cannot run here, each caught by Try/Catch as in 4D.
exposed Function unavailable() : Collection
	var $errors : Collection:=[]
	Try
		var $ai : Object:=cs.AIKit.OpenAI.new()
	Catch
		$errors.push(Last errors[0])
	End try
	Try
		var $response : Text
		var $status : Integer:=HTTP Request("GET"; "https://example.com"; ""; $response)
	Catch
		$errors.push(Last errors[0])
	End try
	Try
		var $smtp : Object:=SMTP New transporter({host: "smtp.example.com"})
		var $sent : Object:=$smtp.send({from: "desk@example.com"; to: "ann@example.com"; subject: "Hi"})
	Catch
		$errors.push(Last errors[0])
	End try
	Try
		ALERT("Saved")
	Catch
		$errors.push(Last errors[0])
	End try
	return $errors

// The same component, not caught: the call fails with 4D's error stack.
exposed Function uncaught() : Object
	return cs.AIKit.OpenAI.new()

// Hides every note from this session from now on (Session.storage, read by Note's restrict).
exposed Function mute()
	Use (Session.storage)
		Session.storage.muted:=True
	End use
