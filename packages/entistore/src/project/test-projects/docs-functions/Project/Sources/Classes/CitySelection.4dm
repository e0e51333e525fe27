Class extends EntitySelection

// ClassFunctions.md, "Using an entitySelection class function".
exposed Function getPopulation()
	return This.zips.sum("population")

exposed Function names() : Collection
	return This.name
