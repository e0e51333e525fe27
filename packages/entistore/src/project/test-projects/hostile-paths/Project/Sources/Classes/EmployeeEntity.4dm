Class extends Entity

// The employer's name, read through the relation.
Alias employerName employer.name
