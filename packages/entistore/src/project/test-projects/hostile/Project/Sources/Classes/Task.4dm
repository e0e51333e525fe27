Class extends DataClass

// Functions that return tasks: their replies write the tasks' getters (the first one's loops long).
exposed Function firstTask() : cs.TaskEntity
	return This.get(1)

exposed Function orderedTasks() : cs.TaskSelection
	return This.all().orderBy("ID")
