property itemList : Collection:=[]

session singleton Class constructor()

shared function addItem($item:object)
	This.itemList.push($item)
