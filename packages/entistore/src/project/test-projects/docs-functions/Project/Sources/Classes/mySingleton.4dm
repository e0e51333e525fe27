//class mySingleton ($singleton.md)

shared singleton Class constructor()

exposed Function sayHello($value : Text)
	return "Hello "+$value
