Class extends Entity

// ClassFunctions.md, "Using an entity class function".
exposed Function getPopulation()
	return This.zips.sum("population")

exposed Function rename($name : Text) : cs.CityEntity
	This.name:=$name
	return This
