Class extends Entity

// A computed title: a REST write of it runs the setter (in steps), for an entity the writer's
// restrict lets it see.
exposed Function get label() : Text
	return This.title

Function set label($value : Text)
	This.title:=$value
