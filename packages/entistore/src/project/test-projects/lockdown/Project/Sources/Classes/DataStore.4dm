Class extends DataStoreImplementation

// POST /rest/$catalog/logIn ["ann"]: the session's user (its restrict answers are that user's view).
exposed Function logIn($name : Text)
	Session.setPrivileges({userName: $name})

// The role the session chose after login, kept in its storage (read by Document's restrict).
exposed Function chooseRole($role : Text)
	Use (Session.storage)
		Session.storage.role:=$role
	End use

// The lockdown flag every session's restrict reads.
exposed Function lockdown($on : Boolean)
	Use (Storage)
		Storage.lockdown:=$on
	End use

// The same switch, kept by a shared singleton.
exposed Function gate($closed : Boolean)
	cs.Gate.me.close($closed)

// What code sees of the documents: ds.Document.all() in a function, twice around a lockdown
// set and lifted in the same call.
exposed Function seen() : Collection
	return ds.Document.all().orderBy("ID asc").ID

exposed Function aroundLockdown() : Object
	var $before : Integer:=ds.Document.all().length
	Use (Storage)
		Storage.lockdown:=True
		var $during : Integer:=ds.Document.all().length
		Storage.lockdown:=False
		var $after : Integer:=ds.Document.all().length
	End use
	return {before: $before; during: $during; after: $after; later: ds.Document.all().length}

// The same view through code core calls in steps: a query by formula, then an ordering by one
// (each formula's values computed ahead for the entities the caller's restrict lets through).
exposed Function seenByFormula() : Collection
	return ds.Document.query(Formula(Length(This.title)>0)).orderByFormula(Formula(0-This.ID); dk descending).ID
