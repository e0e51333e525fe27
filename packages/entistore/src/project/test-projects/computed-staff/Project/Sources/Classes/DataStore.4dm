Class extends DataStoreImplementation

// Logs the session in with the privileges asked: the test's way to read as finance.
exposed Function authentify($privileges : Text) : Text
	Session.setPrivileges({privileges: $privileges; userName: "tester"})
	return Session.userName
