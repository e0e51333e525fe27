Class extends DataClass

// ClassFunctions.md, "Using a dataclass class function" (with onHttpGet for its GET request).
exposed onHTTPGet Function getCity($city : Text) : cs.CityEntity
	return This.query("name = :1"; $city).first()

exposed Function getCities($first : Text; $second : Text) : cs.CitySelection
	return This.query("name in :1"; [$first; $second])

// The selection's function of the same name is the one /rest/City/getPopulation runs.
exposed Function getPopulation() : Integer
	return -1

exposed Function count() : Integer
	return This.all().length
