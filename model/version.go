package model

// Version is the tool version written into every manifest and crash file.
const Version = "0.3.0"
