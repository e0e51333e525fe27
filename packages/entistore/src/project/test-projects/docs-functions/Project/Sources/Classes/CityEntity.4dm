Class extends Entity

// ClassFunctions.md, "Using an entity class function".
exposed Function getPopulation()
	return This.zips.sum("population")

exposed Function rename($name : Text) : cs.CityEntity
	This.name:=$name
	return This

// ClassClass.md and ob-instance-of.md: an entity is an instance of its class, and of 4D.Entity.
exposed Function classes() : Collection
	return [OB Instance of(This; 4D.Entity); OB Instance of(This; cs.CityEntity); OB Class(This).name; OB Class(This.zips).name; OB Instance of(This.zips; 4D.EntitySelection); OB Instance of(ds.City; 4D.DataClass); OB Instance of(ds; 4D.DataStoreImplementation)]
