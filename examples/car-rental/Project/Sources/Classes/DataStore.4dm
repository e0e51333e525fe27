Class extends DataStoreImplementation

// Exposed: listed in $catalog's methods, callable at /rest/$catalog/appInfo (GET too).
exposed onHTTPGet Function appInfo() : Object
	return {name: "car rental"; tables: ds.getInfo().tables}

exposed Function stats() : Object
	return {cars: ds.Car.all().length}

// Not exposed: for the application's own code only.
Function purge()
	ds.AuditLog.all().drop()
